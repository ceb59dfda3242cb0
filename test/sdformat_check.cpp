// Copyright 2026 The robodyn_ros Authors
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

// Load robot descriptions with sdformat's own parser (its URDF conversion is
// what Gazebo runs) and print, one line each: the errors, the model, its links
// with their mass [kg] and its joints with parent and child link. A test
// helper of test/test_xacro_assets.py, compiled and cached by
// test/sdformat_helpers.py.

#include <cstdint>
#include <iostream>
#include <string>

#include <sdf/sdf.hh>

namespace
{
std::string oneLine(std::string text)
{
  for (auto & c : text) {
    if (c == '\n' || c == '\r') {
      c = ' ';
    }
  }
  return text;
}
}  // namespace

int main(int argc, char ** argv)
{
  for (int i = 1; i < argc; ++i) {
    sdf::Root root;
    const sdf::Errors errors = root.Load(argv[i]);
    std::cout << "file " << argv[i] << "\n";
    for (const auto & error : errors) {
      std::cout << "error " << oneLine(error.Message()) << "\n";
    }
    const sdf::Model * model = root.Model();
    if (model == nullptr) {
      std::cout << "nomodel\n";
      continue;
    }
    std::cout << "model " << model->Name() << "\n";
    for (uint64_t k = 0; k < model->LinkCount(); ++k) {
      const sdf::Link * link = model->LinkByIndex(k);
      std::cout << "link " << link->Name() << " " << link->Inertial().MassMatrix().Mass() << "\n";
    }
    for (uint64_t k = 0; k < model->JointCount(); ++k) {
      const sdf::Joint * joint = model->JointByIndex(k);
      std::cout << "joint " << joint->Name() << " " << joint->ParentLinkName() << " " <<
        joint->ChildLinkName() << "\n";
    }
  }
  return 0;
}
