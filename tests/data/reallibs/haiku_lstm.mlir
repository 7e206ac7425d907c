module @jit_apply_fn attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32>, %arg1: tensor<16x4xf32>, %arg2: tensor<64xf32>, %arg3: tensor<24x64xf32>, %arg4: tensor<12x?x8xf32>) -> (tensor<12x?x4xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<16> : tensor<i32>
    %c_1 = stablehlo.constant dense<-1> : tensor<i32>
    %c_2 = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg4, dim = 1 : (tensor<12x?x8xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[1].shape = (12, b, 8). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[1].shape[1] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = stablehlo.convert %0 : tensor<i32>
    %3 = stablehlo.multiply %2, %c_1 : tensor<i32>
    %4 = stablehlo.add %3, %c_0 : tensor<i32>
    %5 = stablehlo.compare GE, %4, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.convert %0 : tensor<i32>
    %7 = stablehlo.multiply %6, %c_1 : tensor<i32>
    %8 = stablehlo.add %7, %c_0 : tensor<i32>
    stablehlo.custom_call @shape_assertion(%5, %8, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the symbolic shape constraint b <= 16. Expected '- b + 16' to be greater or equal to 0, but found {0}.  Using the following polymorphic shapes specifications: args[1].shape = (12, b, 8). Obtained dimension variables: 'b' = {1} from specification 'b' for dimension args[1].shape[1] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
    %9 = call @_wrapped_jax_export_main(%0, %arg0, %arg1, %arg2, %arg3, %arg4) : (tensor<i32>, tensor<4xf32>, tensor<16x4xf32>, tensor<64xf32>, tensor<24x64xf32>, tensor<12x?x8xf32>) -> tensor<12x?x4xf32>
    return %9 : tensor<12x?x4xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<4xf32>, %arg2: tensor<16x4xf32>, %arg3: tensor<64xf32>, %arg4: tensor<24x64xf32>, %arg5: tensor<12x?x8xf32>) -> (tensor<12x?x4xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<4> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<12> : tensor<1xi32>
    %c_3 = stablehlo.constant dense<12> : tensor<i32>
    %c_4 = stablehlo.constant dense<16> : tensor<1xi32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %2 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %3 = stablehlo.concatenate %2, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %4 = stablehlo.dynamic_broadcast_in_dim %0, %3, dims = [1] : (tensor<16xf32>, tensor<2xi32>) -> tensor<?x16xf32>
    %5 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %6 = stablehlo.concatenate %5, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %7 = stablehlo.dynamic_broadcast_in_dim %1, %6, dims = [1] : (tensor<16xf32>, tensor<2xi32>) -> tensor<?x16xf32>
    %8 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %9 = stablehlo.concatenate %c_2, %8, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %10 = stablehlo.dynamic_broadcast_in_dim %cst, %9, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<12x?x16xf32>
    %11:7 = stablehlo.while(%iterArg = %arg5, %iterArg_5 = %arg4, %iterArg_6 = %arg3, %iterArg_7 = %c_1, %iterArg_8 = %4, %iterArg_9 = %7, %iterArg_10 = %10) : tensor<12x?x8xf32>, tensor<24x64xf32>, tensor<64xf32>, tensor<i32>, tensor<?x16xf32>, tensor<?x16xf32>, tensor<12x?x16xf32>
    cond {
      %17 = stablehlo.compare LT, %iterArg_7, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %17 : tensor<i1>
    } do {
      %17 = func.call @dynamic_index_in_dim(%arg0, %iterArg, %iterArg_7) : (tensor<i32>, tensor<12x?x8xf32>, tensor<i32>) -> tensor<?x8xf32>
      %18:3 = func.call @closed_call(%arg0, %iterArg_5, %iterArg_6, %iterArg_8, %iterArg_9, %17) : (tensor<i32>, tensor<24x64xf32>, tensor<64xf32>, tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x8xf32>) -> (tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>)
      %19 = func.call @dynamic_update_index_in_dim(%arg0, %iterArg_10, %18#2, %iterArg_7) : (tensor<i32>, tensor<12x?x16xf32>, tensor<?x16xf32>, tensor<i32>) -> tensor<12x?x16xf32>
      %20 = stablehlo.add %iterArg_7, %c_0 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_5, %iterArg_6, %20, %18#0, %18#1, %19 : tensor<12x?x8xf32>, tensor<24x64xf32>, tensor<64xf32>, tensor<i32>, tensor<?x16xf32>, tensor<?x16xf32>, tensor<12x?x16xf32>
    }
    %12 = stablehlo.dot_general %11#6, %arg2, contracting_dims = [2] x [0] : (tensor<12x?x16xf32>, tensor<16x4xf32>) -> tensor<12x?x4xf32>
    %13 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %14 = stablehlo.concatenate %c_2, %13, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %15 = stablehlo.dynamic_broadcast_in_dim %arg1, %14, dims = [2] : (tensor<4xf32>, tensor<3xi32>) -> tensor<12x?x4xf32>
    %16 = stablehlo.add %12, %15 : tensor<12x?x4xf32>
    return %16 : tensor<12x?x4xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<12x?x8xf32>, %arg2: tensor<i32>) -> tensor<?x8xf32> {
    %c = stablehlo.constant dense<12> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<8> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<1> : tensor<1xi32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %c_3, %0, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2 = stablehlo.concatenate %c_0, %c_0, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %3 = stablehlo.reshape %arg2 : (tensor<i32>) -> tensor<1xi32>
    %4 = stablehlo.reshape %c_2 : (tensor<i32>) -> tensor<1xi32>
    %5 = stablehlo.reshape %c_2 : (tensor<i32>) -> tensor<1xi32>
    %6 = stablehlo.concatenate %3, %4, %5, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %7 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %8 = stablehlo.concatenate %c, %7, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %9 = stablehlo.subtract %8, %1 : tensor<3xi32>
    %10 = stablehlo.clamp %2, %6, %9 : tensor<3xi32>
    %11 = stablehlo.add %10, %1 : tensor<3xi32>
    %12 = stablehlo.concatenate %c_3, %c_3, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %13 = stablehlo.real_dynamic_slice %arg1, %10, %11, %12 : (tensor<12x?x8xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<1x?x8xf32>
    %14 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %15 = stablehlo.concatenate %14, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %16 = stablehlo.dynamic_reshape %13, %15 : (tensor<1x?x8xf32>, tensor<2xi32>) -> tensor<?x8xf32>
    return %16 : tensor<?x8xf32>
  }
  func.func private @closed_call(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<24x64xf32>, %arg2: tensor<64xf32>, %arg3: tensor<?x16xf32>, %arg4: tensor<?x16xf32>, %arg5: tensor<?x8xf32>) -> (tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<48> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<32> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<16> : tensor<1xi32>
    %c_3 = stablehlo.constant dense<0> : tensor<1xi32>
    %c_4 = stablehlo.constant dense<64> : tensor<1xi32>
    %0 = stablehlo.concatenate %arg5, %arg3, dim = 1 : (tensor<?x8xf32>, tensor<?x16xf32>) -> tensor<?x24xf32>
    %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0] : (tensor<?x24xf32>, tensor<24x64xf32>) -> tensor<?x64xf32>
    %2 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %3 = stablehlo.concatenate %2, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %4 = stablehlo.dynamic_broadcast_in_dim %arg2, %3, dims = [1] : (tensor<64xf32>, tensor<2xi32>) -> tensor<?x64xf32>
    %5 = stablehlo.add %1, %4 : tensor<?x64xf32>
    %6 = stablehlo.concatenate %c_3, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %7 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %8 = stablehlo.concatenate %7, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %9 = stablehlo.concatenate %c_1, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %10 = stablehlo.real_dynamic_slice %5, %6, %8, %9 : (tensor<?x64xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x16xf32>
    %11 = stablehlo.concatenate %c_3, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %12 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %13 = stablehlo.concatenate %12, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %14 = stablehlo.concatenate %c_1, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %15 = stablehlo.real_dynamic_slice %5, %11, %13, %14 : (tensor<?x64xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x16xf32>
    %16 = stablehlo.concatenate %c_3, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %17 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %18 = stablehlo.concatenate %17, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %19 = stablehlo.concatenate %c_1, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %20 = stablehlo.real_dynamic_slice %5, %16, %18, %19 : (tensor<?x64xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x16xf32>
    %21 = stablehlo.concatenate %c_3, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %22 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %23 = stablehlo.concatenate %22, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %24 = stablehlo.concatenate %c_1, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %25 = stablehlo.real_dynamic_slice %5, %21, %23, %24 : (tensor<?x64xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x16xf32>
    %26 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %27 = stablehlo.concatenate %26, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %28 = stablehlo.dynamic_broadcast_in_dim %cst, %27, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x16xf32>
    %29 = stablehlo.add %20, %28 : tensor<?x16xf32>
    %30 = stablehlo.negate %29 : tensor<?x16xf32>
    %31 = stablehlo.exponential %30 : tensor<?x16xf32>
    %32 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %33 = stablehlo.concatenate %32, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %34 = stablehlo.dynamic_broadcast_in_dim %cst, %33, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x16xf32>
    %35 = stablehlo.add %34, %31 : tensor<?x16xf32>
    %36 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %37 = stablehlo.concatenate %36, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %38 = stablehlo.dynamic_broadcast_in_dim %cst, %37, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x16xf32>
    %39 = stablehlo.divide %38, %35 : tensor<?x16xf32>
    %40 = stablehlo.multiply %39, %arg4 : tensor<?x16xf32>
    %41 = stablehlo.negate %10 : tensor<?x16xf32>
    %42 = stablehlo.exponential %41 : tensor<?x16xf32>
    %43 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %44 = stablehlo.concatenate %43, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %45 = stablehlo.dynamic_broadcast_in_dim %cst, %44, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x16xf32>
    %46 = stablehlo.add %45, %42 : tensor<?x16xf32>
    %47 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %48 = stablehlo.concatenate %47, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %49 = stablehlo.dynamic_broadcast_in_dim %cst, %48, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x16xf32>
    %50 = stablehlo.divide %49, %46 : tensor<?x16xf32>
    %51 = stablehlo.tanh %15 : tensor<?x16xf32>
    %52 = stablehlo.multiply %50, %51 : tensor<?x16xf32>
    %53 = stablehlo.add %40, %52 : tensor<?x16xf32>
    %54 = stablehlo.negate %25 : tensor<?x16xf32>
    %55 = stablehlo.exponential %54 : tensor<?x16xf32>
    %56 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %57 = stablehlo.concatenate %56, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %58 = stablehlo.dynamic_broadcast_in_dim %cst, %57, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x16xf32>
    %59 = stablehlo.add %58, %55 : tensor<?x16xf32>
    %60 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %61 = stablehlo.concatenate %60, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %62 = stablehlo.dynamic_broadcast_in_dim %cst, %61, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x16xf32>
    %63 = stablehlo.divide %62, %59 : tensor<?x16xf32>
    %64 = stablehlo.tanh %53 : tensor<?x16xf32>
    %65 = stablehlo.multiply %63, %64 : tensor<?x16xf32>
    return %65, %53, %65 : tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<12x?x16xf32>, %arg2: tensor<?x16xf32>, %arg3: tensor<i32>) -> tensor<12x?x16xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<16> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<1> : tensor<1xi32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %c_1, %0, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2 = stablehlo.dynamic_broadcast_in_dim %arg2, %1, dims = [1, 2] : (tensor<?x16xf32>, tensor<3xi32>) -> tensor<1x?x16xf32>
    %3 = stablehlo.dynamic_update_slice %arg1, %2, %arg3, %c, %c : (tensor<12x?x16xf32>, tensor<1x?x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<12x?x16xf32>
    return %3 : tensor<12x?x16xf32>
  }
}
